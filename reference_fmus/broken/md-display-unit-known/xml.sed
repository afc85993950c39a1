# displayUnit kJ for E, but unit J has no DisplayUnit kJ (B-107, FMPy heuristic).
s|      <Real unit="J"/>|      <Real unit="J" displayUnit="kJ"/>|
