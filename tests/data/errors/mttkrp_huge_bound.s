3 1
{S[i,j,k,l]:0<=i<9223372036854775807 and 0<=j<256 and 0<=k<256 and 0<=l<256}
{S[i,j,k,l]->A[i,k,l]}
{S[i,j,k,l]->B[k,j]}
{S[i,j,k,l]->C[l,j]}
{S[i,j,k,l]->Y[i,j]}