# chain bindings: jump/goto { ... } chains live and die with their rule
nft add table inet t
nft add chain inet t c '{ type filter hook input priority 0; }'
nft add rule inet t c tcp dport 22 jump '{ counter; ip saddr 1.1.1.1 drop; }'
nft add rule inet t c tcp dport 23 goto '{ counter; }'
nft add rule inet t c udp dport 53 jump '{ udp sport 1 counter; meta mark 3 accept; }'
nft -a list ruleset
nft list chains
nft add rule inet t c tcp dport 24 jump '{ counter; jump { drop; }; }'
nft -a list ruleset
nft delete rule inet t c handle 5
nft replace rule inet t c handle 12 udp dport 54 jump '{ counter; return; }'
nft -a list ruleset
nft -j list ruleset
nft flush chain inet t c
nft list ruleset
nft add rule inet t c tcp dport 22 jump '{ counter; }'
nft add chain inet t d
nft add rule inet t d jump '{ counter; }'
nft add rule inet t c jump d
nft -a list ruleset
nft delete chain inet t d
