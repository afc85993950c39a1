# FMI 1.0: CoSimulation_StandAlone without its required Capabilities element.
/<Capabilities /d
