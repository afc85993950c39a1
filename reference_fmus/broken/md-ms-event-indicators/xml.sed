# an Int32 event indicator (B-405); the library has
# one indicator, so the Model Exchange run fails when it asks for the two the XML declares
s|<EventIndicator valueReference="1" dependencies="1"/>|&\n    <EventIndicator valueReference="8"/>|
