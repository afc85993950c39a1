# FMI 1.0 CS: the Capabilities declare maxOutputDerivativeOrder="1", but fmiGetRealOutputDerivatives
# returns fmiError (the glue provides no output derivatives)
s|maxOutputDerivativeOrder="0"|maxOutputDerivativeOrder="1"|
