# The mass m gets max="2" below its start 2.5 (B-210).
s|<Real unit="kg" min="0.001" start="2.5"/>|<Real unit="kg" min="0.001" max="2" start="2.5"/>|
