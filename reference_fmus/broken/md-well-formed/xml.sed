s|</fmiModelDescription>|</fmiModelDescription\n|
