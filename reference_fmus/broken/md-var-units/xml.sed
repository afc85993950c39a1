# The energy output E in unit kJ, which UnitDefinitions does not define (B-106).
s|      <Real unit="J"/>|      <Real unit="kJ"/>|
