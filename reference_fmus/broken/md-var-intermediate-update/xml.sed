# intermediateUpdate on a discrete Int32 (B-221)
s|name="impacts" valueReference="8"|& intermediateUpdate="true"|
