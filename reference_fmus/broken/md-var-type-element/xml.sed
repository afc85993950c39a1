# The energy output E with two Real type elements.
s|      <Real unit="J"/>|&<Real unit="J"/>|
