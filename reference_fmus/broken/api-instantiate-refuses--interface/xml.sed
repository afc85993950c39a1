# The model description declares only ModelExchange; the binary (glue caps ME|CS) still
# instantiates fmi2CoSimulation: an undeclared interface type is accepted.
/<CoSimulation /d
