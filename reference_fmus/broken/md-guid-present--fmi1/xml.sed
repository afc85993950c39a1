# FMI 1.0: an empty guid on fmiModelDescription (the binary keeps its real GUID, as ../md-guid-present)
s/ guid="[^"]*"/ guid=""/
