# The CoSimulation modelIdentifier "Spring-Mass-Damper" is a valid file name but no C identifier;
# MANGLE adds the library under that name.
s|<CoSimulation modelIdentifier="SpringMassDamper"|<CoSimulation modelIdentifier="Spring-Mass-Damper"|
