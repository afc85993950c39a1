# An empty TypeDefinitions element (B-004).
s|  <LogCategories>|  <TypeDefinitions>\n  </TypeDefinitions>\n&|
