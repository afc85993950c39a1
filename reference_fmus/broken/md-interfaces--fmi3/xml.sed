# CoSimulation twice
/<CoSimulation /p
