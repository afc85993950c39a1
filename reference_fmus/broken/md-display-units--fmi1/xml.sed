# FMI 1.0: two DisplayUnitDefinitions "h" under BaseUnit "s".
s|<BaseUnit unit="s"/>|<BaseUnit unit="s"><DisplayUnitDefinition displayUnit="h" gain="0.000277777777777778"/><DisplayUnitDefinition displayUnit="h" gain="1"/></BaseUnit>|
