# FMI 1.0: the end tag of the root element is not closed (not well-formed XML)
s|</fmiModelDescription>|</fmiModelDescription\n|
