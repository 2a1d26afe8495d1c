# bad priorities: unknown names, names invalid for the family/hook, nat at conntrack priority
nft add table ip t
nft add chain ip t a { type filter hook input priority foo ; }
nft add chain ip t b { type filter hook input priority out ; }
nft add chain ip t c { type nat hook prerouting priority -300 ; }
nft add chain ip t d { type nat hook postrouting priority -200 ; }
nft add chain ip t e { type filter hook input priority filter + foo ; }
nft add chain ip t f { type filter hook input priority 99999999999 ; }
nft add chain ip t g { type nat hook input priority dstnat ; }
nft add table bridge b
nft add chain bridge b h { type filter hook input priority mangle ; }
nft list ruleset
