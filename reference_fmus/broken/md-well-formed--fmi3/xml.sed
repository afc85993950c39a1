# the end tag is not closed
s|</fmiModelDescription>|</fmiModelDescription\n|
