# Two VendorAnnotations tools with the same name (B-112).
s|  <ModelVariables>|  <VendorAnnotations>\n    <Tool name="fmucheck"/>\n    <Tool name="fmucheck"/>\n  </VendorAnnotations>\n&|
