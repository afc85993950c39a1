# an undefined unit
s|name="e" valueReference="6"|& unit="kJ"|
