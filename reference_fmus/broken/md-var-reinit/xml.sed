# reinit="true" on the energy output E, which is no state (B-216).
s|      <Real unit="J"/>|      <Real unit="J" reinit="true"/>|
