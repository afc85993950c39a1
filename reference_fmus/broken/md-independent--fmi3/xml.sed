# no independent variable: FMI 3.0 requires exactly one (§2.4.7.4)
/name="time" valueReference="0"/d
