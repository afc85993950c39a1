# an Int32 min that is no integer
s|name="impacts" valueReference="8"|& min="1.5"|
