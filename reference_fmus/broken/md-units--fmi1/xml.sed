# FMI 1.0: BaseUnit "s" defined twice.
s|<BaseUnit unit="s"/>|<BaseUnit unit="s"/>\n    <BaseUnit unit="s"/>|
