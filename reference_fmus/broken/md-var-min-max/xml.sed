# A negative nominal on the energy output E (B-108).
s|      <Real unit="J"/>|      <Real unit="J" nominal="-1"/>|
