# displayUnit ft is no DisplayUnit of m: a must in FMI 3.0 (§2.4.4)
s|name="h" valueReference="1"|& displayUnit="ft"|
