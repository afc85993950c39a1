# BouncingBall has no step hook; declare that it needs the call anyway
s|needsCompletedIntegratorStep="false"|needsCompletedIntegratorStep="true"|
