# an Int32 event indicator (B-405)
s|<EventIndicator valueReference="1" dependencies="1"/>|&\n    <EventIndicator valueReference="8"/>|
