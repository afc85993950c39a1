# Annotations after Alias (B-005, G-02)
s|\(<Float64 name="e" [^>]*\)/>|\1><Alias name="restitution"/><Annotations><Annotation type="com.example.tool"/></Annotations></Float64>|
