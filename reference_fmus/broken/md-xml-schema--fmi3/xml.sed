# Annotation with an attribute other than type (G-02, fmi3Annotation.xsd)
s|\(<Float64 name="e" [^>]*\)/>|\1><Annotations><Annotation type="com.example.tool" order="1"/></Annotations></Float64>|
