# policies: user chains cannot have one; unknown policy values
nft add table ip t
nft add chain ip t u { policy drop ; }
nft add chain ip t b { type filter hook input priority 0 ; policy reject ; }
nft add chain ip t c { type filter hook input priority 0 ; policy continue ; }
nft add chain ip t d { type filter hook input priority 0 ; policy return ; }
nft list ruleset
