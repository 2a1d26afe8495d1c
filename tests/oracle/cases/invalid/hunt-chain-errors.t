nft add table inet t
nft add chain inet t base { type filter hook input priority 0\; }
nft add chain inet t base { type filter hook output priority 0\; }
nft add chain inet t base { type filter hook input priority 10\; }
nft add chain inet t base { type nat hook input priority 0\; }
nft add chain inet t base { policy drop\; }
nft add chain inet t reg
nft add chain inet t reg { policy drop\; }
nft add chain inet t reg { type filter hook input priority 0\; }
nft create chain inet t reg
nft create chain inet t base { type filter hook input priority 0\; }
nft delete chain inet t base
nft add rule inet t reg jump base
nft add rule inet t reg jump reg
nft add rule inet t reg goto reg2
nft add chain inet t reg2
nft add rule inet t reg2 jump reg
nft add rule inet t reg jump reg2
nft add rule inet t base jump reg2
nft add rule inet t reg2 jump reg
nft delete chain inet t reg2
nft rename chain inet t reg2 reg
nft rename chain inet t reg2 base
nft rename chain inet t reg2 r3
nft -a list ruleset
nft delete chain inet t handle 2
nft flush chain inet t reg
nft delete chain inet t reg
nft delete chain inet t r3
nft -a list ruleset
nft delete chain inet t handle 1
nft -a list ruleset
