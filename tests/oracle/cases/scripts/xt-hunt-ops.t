iptables-nft -N foo
iptables-nft -N foo
iptables-nft -A INPUT -s 1.1.1.1 -j ACCEPT
iptables-nft -A INPUT -s 2.2.2.2 -j DROP
iptables-nft -I INPUT 2 -s 3.3.3.3 -j foo
iptables-nft -I INPUT 5 -s 4.4.4.4 -j ACCEPT
iptables-nft -I INPUT 4 -s 4.4.4.4 -j ACCEPT
iptables-nft -R INPUT 1 -s 5.5.5.5 -j DROP
iptables-nft -R INPUT 9 -s 5.5.5.5 -j DROP
iptables-nft -D INPUT 2
iptables-nft -D INPUT -s 9.9.9.9 -j DROP
iptables-nft -D INPUT -s 2.2.2.2 -j DROP
iptables-nft -C INPUT -s 5.5.5.5 -j DROP
iptables-nft -C INPUT -s 5.5.5.6 -j DROP
iptables-nft -A foo -p tcp --dport 22 -j RETURN
iptables-nft -L -n -v --line-numbers
iptables-nft -S
iptables-nft -S INPUT 1
iptables-nft -Z INPUT
iptables-nft -Z INPUT 1
iptables-nft -E foo bar
iptables-nft -E foo bar
iptables-nft -E bar INPUT
iptables-nft -X bar
iptables-nft -P INPUT DROP
iptables-nft -P foo DROP
iptables-nft -P INPUT BOGUS
iptables-nft -N averyveryveryveryverylongchainname
iptables-nft -N 'bad name'
iptables-nft -N -bad
iptables-nft -t nat -N x
iptables-nft -t bogus -L
iptables-nft-save
iptables-nft -F
iptables-nft -F INPUT
iptables-nft -X
iptables-nft-save
iptables-nft -t nat -F
iptables-nft -t nat -X
ip6tables-nft -N a
ip6tables-nft -A INPUT -s ::1 -j a
ip6tables-nft -A a -p udp --dport 53 -j ACCEPT
ip6tables-nft -I a -j LOG
ip6tables-nft -D INPUT 1
ip6tables-nft -X a
ip6tables-nft -Z
ip6tables-nft -P FORWARD DROP
ip6tables-nft-save
nft list ruleset
