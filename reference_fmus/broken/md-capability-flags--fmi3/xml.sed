# canReturnEarlyAfterIntermediateUpdate without providesIntermediateUpdate (§4.4)
s|<CoSimulation modelIdentifier="BouncingBall"|& canReturnEarlyAfterIntermediateUpdate="true"|
