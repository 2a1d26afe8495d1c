# fib in hooks nft_fib_validate() refuses: EOPNOTSUPP, nothing committed
nft add table ip t
nft add chain ip t pre { type filter hook prerouting priority 0 ; }
nft add chain ip t in { type filter hook input priority 0 ; }
nft add chain ip t out { type filter hook output priority 0 ; }
nft add chain ip t post { type filter hook postrouting priority 0 ; }
nft add chain ip t reg
nft add rule ip t in fib daddr . oif type local accept
nft add rule ip t pre fib daddr . oif type local accept
nft add rule ip t out fib daddr . iif type local accept
nft add rule ip t post fib daddr . iif type local accept
nft add rule ip t reg fib daddr . oif type local accept
nft add rule ip t in jump reg
nft add rule ip t reg fib daddr . iif type local accept
nft add rule ip t out jump reg
nft add rule ip t in fib daddr type local counter
nft add rule ip t out fib daddr . oif type broadcast counter
nft list ruleset
