# X10: both interfaces declare canBeInstantiatedOnlyOncePerProcess="true" (the binary really
# crashes on a second instantiation in one process)
s/<ModelExchange modelIdentifier="\([^"]*\)"/<ModelExchange modelIdentifier="\1" canBeInstantiatedOnlyOncePerProcess="true"/
s/<CoSimulation modelIdentifier="\([^"]*\)"/<CoSimulation modelIdentifier="\1" canBeInstantiatedOnlyOncePerProcess="true"/
