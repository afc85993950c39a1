# h listed as a state derivative
s|<ContinuousStateDerivative valueReference="4" dependencies=""/>|&\n    <ContinuousStateDerivative valueReference="1"/>|
