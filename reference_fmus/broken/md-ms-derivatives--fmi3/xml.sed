# h listed as a state derivative; the library has
# two states, so the Model Exchange run fails when it asks for the three the XML declares
s|<ContinuousStateDerivative valueReference="4" dependencies=""/>|&\n    <ContinuousStateDerivative valueReference="1"/>|
