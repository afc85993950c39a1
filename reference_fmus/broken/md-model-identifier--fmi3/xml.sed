# a modelIdentifier that is no C identifier (the library is shipped under that name too)
s|<CoSimulation modelIdentifier="BouncingBall"|<CoSimulation modelIdentifier="Bouncing-Ball"|
