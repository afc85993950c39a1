# a local periodic Clock (local clocks are triggered) and no hasEventMode (B-352, B-358)
s|</ModelVariables>|    <Clock name="tick" valueReference="9" causality="local" intervalVariability="constant" intervalDecimal="0.5"/>\n&|
