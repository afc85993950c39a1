# An (unused) SimpleType with min > max (B-108).
s|  <LogCategories>|  <TypeDefinitions>\n    <SimpleType name="Length"><Real unit="m" min="1" max="0"/></SimpleType>\n  </TypeDefinitions>\n&|
