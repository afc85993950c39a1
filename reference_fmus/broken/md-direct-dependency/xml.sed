# FMI 1.0: the energy output E declares a direct dependency on the parameter k, which is no
# input (fmi1-rules B-208).
s|<DirectDependency/>|<DirectDependency><Name>k</Name></DirectDependency>|
