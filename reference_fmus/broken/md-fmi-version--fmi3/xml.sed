# "3.0-" does not match the fmi3 pattern (a suffix needs characters)
s|fmiVersion="3.0"|fmiVersion="3.0-"|
