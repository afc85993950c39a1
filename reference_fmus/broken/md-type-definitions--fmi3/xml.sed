# a Float64Type with min > max
s|  <LogCategories>|  <TypeDefinitions>\n    <Float64Type name="Length" unit="m" min="1" max="0"/>\n  </TypeDefinitions>\n&|
