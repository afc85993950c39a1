s/canRunAsynchronuously="true"/canRunAsynchronuously="false"/
