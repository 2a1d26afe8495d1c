flush chain inet f input
delete map inet f ports
delete chain inet f web
add chain inet f web2
rename chain inet f web2 web3
add rule inet f input jump web3
delete element inet f allow { 10.0.0.0/8 }
add element inet f allow { 10.0.0.0/8, 172.16.0.0/12 }
flush set inet f allow
add element inet f allow { 1.1.1.1 }
