# FMI 3.0: CoSimulation declares maxOutputDerivativeOrder="1", but fmi3GetOutputDerivatives
# returns fmi3Error (the glue provides no output derivatives; FMI 3.0.2 §4.1.2)
s|<CoSimulation modelIdentifier="BouncingBall"|& maxOutputDerivativeOrder="1"|
