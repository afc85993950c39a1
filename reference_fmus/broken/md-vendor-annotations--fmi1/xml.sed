# FMI 1.0: two VendorAnnotations Tools named "fmucheck".
s|\(<DefaultExperiment [^>]*/>\)|\1\n  <VendorAnnotations><Tool name="fmucheck"><Annotation name="a" value="1"/></Tool><Tool name="fmucheck"/></VendorAnnotations>|
