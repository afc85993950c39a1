# derivative="99" on the energy output E: no such variable (B-214).
s|      <Real unit="J"/>|      <Real unit="J" derivative="99"/>|
