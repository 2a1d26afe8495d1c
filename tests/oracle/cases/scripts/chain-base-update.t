# base chains: policy update allowed, hook/priority/type change refused
nft add table ip t
nft add chain ip t in { type filter hook input priority 0 ; policy accept ; }
nft add chain ip t in { type filter hook input priority 0 ; policy drop ; }
nft list chain ip t in
nft chain ip t in { policy accept ; }
nft list chain ip t in
nft add chain ip t in { type filter hook input priority 10 ; }
nft add chain ip t in { type filter hook output priority 0 ; }
nft add chain ip t in { type nat hook input priority 0 ; }
nft add chain ip t in
nft create chain ip t in { type filter hook input priority 0 ; }
nft add chain ip t user
nft add chain ip t user { type filter hook input priority 0 ; }
nft -a list ruleset
