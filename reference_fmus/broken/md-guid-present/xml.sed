# Empty the guid attribute of fmiModelDescription (the binary keeps its real GUID).
s/ guid="[^"]*"/ guid=""/
