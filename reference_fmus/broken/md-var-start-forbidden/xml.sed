# A start value on the output x whose initial is calculated (B-208, G-07).
s|<Real unit="m" nominal="0.05"/>|<Real unit="m" nominal="0.05" start="0.05"/>|
