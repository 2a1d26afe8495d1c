# iptables-nft: append, insert, delete, replace, check, list
iptables-nft -A INPUT -s 10.0.0.1 -j DROP
iptables-nft -A INPUT -p tcp --dport 22 -j ACCEPT
iptables-nft -I INPUT -i lo -j ACCEPT
iptables-nft -I INPUT 2 -p udp --dport 53 -j ACCEPT
iptables-nft -R INPUT 3 -s 10.0.0.2 -j REJECT
iptables-nft -C INPUT -s 10.0.0.2 -j REJECT
iptables-nft -C INPUT -s 10.0.0.9 -j REJECT
iptables-nft -D INPUT -p tcp --dport 22 -j ACCEPT
iptables-nft -D INPUT 1
iptables-nft -S
iptables-nft -L -n
iptables-nft -L INPUT -n -v --line-numbers
iptables-nft -L -n -x -v
nft -a list ruleset
