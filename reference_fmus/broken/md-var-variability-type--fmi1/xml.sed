# FMI 1.0: the Integer counter without variability, so the default "continuous" (G-05, B-202).
s| variability="discrete" causality="output">| causality="output">|
