# both interfaces declare canBeInstantiatedOnlyOncePerProcess="true"
s/<ModelExchange modelIdentifier="\([^"]*\)"/<ModelExchange modelIdentifier="\1" canBeInstantiatedOnlyOncePerProcess="true"/
s/<CoSimulation modelIdentifier="\([^"]*\)"/<CoSimulation modelIdentifier="\1" canBeInstantiatedOnlyOncePerProcess="true"/
