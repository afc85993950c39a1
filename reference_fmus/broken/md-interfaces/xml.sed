# CoSimulation declared twice (B-003).
/<CoSimulation /p
