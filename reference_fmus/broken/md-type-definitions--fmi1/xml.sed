# FMI 1.0: two Types named "Length" (Type names are unique).
s|</UnitDefinitions>|</UnitDefinitions>\n  <TypeDefinitions>\n    <Type name="Length"><RealType unit="m"/></Type>\n    <Type name="Length"><RealType quantity="Length"/></Type>\n  </TypeDefinitions>|
